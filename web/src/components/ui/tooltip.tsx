import { Tooltip as TooltipPrimitive } from "radix-ui";
import type { ReactNode } from "react";
import { timings } from "../../lib/domain";

const t = timings();

/** Tooltip provider with the delays of docs/PRODUCT.md §9.11 (700 ms, skip 300 ms). */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <TooltipPrimitive.Provider delayDuration={t.tooltipDelayMs} skipDelayDuration={t.tooltipSkipDelayMs}>
      {children}
    </TooltipPrimitive.Provider>
  );
}

/** A tooltip on any focusable trigger, offset 4 px. */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactNode }) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          sideOffset={t.tooltipOffsetPx}
          className="z-50 max-w-xs rounded-md bg-slate-900 px-3 py-1.5 text-xs text-white shadow-md dark:bg-slate-100 dark:text-slate-900"
        >
          {content}
          <TooltipPrimitive.Arrow className="fill-slate-900 dark:fill-slate-100" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
