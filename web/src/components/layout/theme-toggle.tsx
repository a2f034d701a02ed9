import { Monitor, Moon, Sun } from "lucide-react";
import { cn } from "../../lib/cn";
import { useThemeStore, type ThemePreference } from "../../lib/theme";

const icons = { light: Sun, dark: Moon, system: Monitor };

/**
 * Light / dark / system switch, stored under ui-theme. A native select: keyboard and screen-reader
 * friendly everywhere, and it keeps a popover library out of the home page's first load.
 */
export function ThemeToggle({ className }: { className?: string }) {
  const theme = useThemeStore((s) => s.theme);
  const setTheme = useThemeStore((s) => s.setTheme);
  const Icon = icons[theme];
  return (
    <div className={cn("relative inline-flex size-10 items-center justify-center rounded-lg hover:bg-muted focus-within:ring-2 focus-within:ring-ring", className)}>
      <Icon className="pointer-events-none size-5" aria-hidden="true" />
      <select
        aria-label="Theme"
        value={theme}
        onChange={(e) => setTheme(e.target.value as ThemePreference)}
        className="absolute inset-0 cursor-pointer appearance-none opacity-0 focus:outline-none"
      >
        <option value="light">Light</option>
        <option value="dark">Dark</option>
        <option value="system">System</option>
      </select>
    </div>
  );
}
