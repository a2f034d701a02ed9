import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "../../lib/cn";

export const badgeVariants = cva(
  "inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
  {
    variants: {
      variant: {
        default: "border-transparent bg-primary text-primary-foreground",
        outline: "border-border text-foreground",
        green: "border-transparent bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-200",
        yellow: "border-transparent bg-yellow-100 text-yellow-900 dark:bg-yellow-900/50 dark:text-yellow-200",
        amber: "border-transparent bg-amber-100 text-amber-900 dark:bg-amber-900/50 dark:text-amber-200",
        red: "border-transparent bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-200",
        pro: "border-transparent bg-gradient-to-r from-violet-600 to-indigo-600 text-white",
      },
    },
    defaultVariants: { variant: "default" },
  },
);

export function Badge({ className, variant, ...props }: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
