export function startFixtureSite(): Promise<{ url: string; close: () => void }>;
export function startServer(extraEnv?: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }>;
