import { create } from "zustand";
import { limits } from "./domain";

export type ThemePreference = "system" | "light" | "dark";

const storageKey = limits().themeStorageKey;

function readStored(): ThemePreference {
  try {
    const v = localStorage.getItem(storageKey);
    return v === "light" || v === "dark" || v === "system" ? v : "system";
  } catch {
    return "system";
  }
}

function systemDark() {
  return typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
}

/** Puts the `dark` class on <html> for the preference ("system" follows the OS setting). */
export function applyTheme(pref: ThemePreference) {
  const dark = pref === "dark" || (pref === "system" && systemDark());
  document.documentElement.classList.toggle("dark", dark);
}

type ThemeState = { theme: ThemePreference; setTheme: (t: ThemePreference) => void };

/** The theme preference (system by default), stored under the ui-theme key of docs/PRODUCT.md §4.2. */
export const useThemeStore = create<ThemeState>((set) => ({
  theme: typeof localStorage === "undefined" ? "system" : readStored(),
  setTheme: (theme) => {
    try {
      localStorage.setItem(storageKey, theme);
    } catch {
      // Storage can be unavailable (private mode); the choice still applies to this visit.
    }
    applyTheme(theme);
    set({ theme });
  },
}));

/** Applies the stored preference at start-up and follows OS changes while on "system". */
export function initTheme() {
  applyTheme(useThemeStore.getState().theme);
  if (typeof matchMedia === "function") {
    matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
      if (useThemeStore.getState().theme === "system") applyTheme("system");
    });
  }
}
