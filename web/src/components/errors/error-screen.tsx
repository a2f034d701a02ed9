import { Component, type ErrorInfo, type ReactNode } from "react";
import { AlertTriangle } from "lucide-react";
import { Button } from "../ui/button";

/** The fallback error screen of docs/PRODUCT.md §2.10. */
export function ErrorScreen({ onReset }: { onReset: () => void }) {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <div className="mb-6 grid size-14 place-content-center rounded-full bg-red-100 text-red-700 dark:bg-red-950 dark:text-red-300">
        <AlertTriangle className="size-7" aria-hidden="true" />
      </div>
      <h1 className="text-3xl font-bold tracking-tight">Something went wrong</h1>
      <p className="mt-3 text-muted-foreground">
        We encountered an unexpected error while processing your request. Please try refreshing the page or return to the homepage.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button onClick={onReset}>Try Again</Button>
        <Button variant="outline" onClick={() => window.location.assign("/")}>
          Return Home
        </Button>
      </div>
    </div>
  );
}

/** Logs what docs/PRODUCT.md §2.10 asks for: message, stack, component stack and a timestamp. */
export function logError(error: unknown, componentStack?: string | null) {
  const e = error instanceof Error ? error : new Error(String(error));
  console.error("Application error", {
    message: e.message,
    stack: e.stack,
    componentStack: componentStack ?? undefined,
    timestamp: new Date().toISOString(),
  });
}

type State = { error: unknown };

/** Catches render errors below it; Try Again clears the error and renders the children again. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error("Unknown error") };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    logError(error, info.componentStack);
  }

  componentDidUpdate(prev: { resetKey?: string }) {
    if (this.state.error && prev.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  render() {
    if (this.state.error) return <ErrorScreen onReset={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
