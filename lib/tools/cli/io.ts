/** Where a command writes, and how it is told to stop (tests pass their own). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Aborted on SIGINT/SIGTERM by the bin; a long-running command then closes and resolves. */
  signal?: AbortSignal;
  /** Called once the sandbox listens (tests read the URL from it). */
  onListening?: (url: string) => void;
  /** The environment (`$DATABASE_URL`); process.env when absent (tests pass their own). */
  env?: Readonly<Record<string, string | undefined>>;
}
