// Errors a user can fix, shown as one line on stderr with exit code 2 (main.ts). In a module of its own so
// commands do not import main.ts (which imports them lazily) just for the class.
export class CliError extends Error {
  override readonly name = 'CliError'
}

/**
 * A command that could not do what it was asked with well-formed arguments (a file that cannot be
 * imported, a session that is not there): one line on stderr, exit code 1.
 */
export class CommandError extends Error {
  override readonly name: string = 'CommandError'
}

/**
 * A session (or other named thing) that does not exist or whose prefix is ambiguous: the user named
 * it, so the message lists what would match.
 */
export class NotFoundError extends CommandError {
  override readonly name = 'NotFoundError'
}
