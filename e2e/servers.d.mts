export function startFixtureSite(): Promise<{ url: string; close: () => void }>;
export function startServer(
  extraEnv?: Record<string, string>,
): Promise<{ url: string; databaseUrl: string; bin: string; stop: () => Promise<void> }>;
export function startMailSink(): Promise<{ url: string; dir: string; stop: () => void }>;
