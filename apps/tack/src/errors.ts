// Errors a user can fix, shown as one line on stderr with exit code 2 (main.ts). In a module of its own so
// commands do not import main.ts (which imports them lazily) just for the class.
export class CliError extends Error {
  override readonly name = 'CliError'
}

/**
 * A session (or other named thing) that does not exist or whose prefix is ambiguous: the user named
 * it, so the message lists what would match. Exit code 1, as a missing session always was.
 */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError'
}
