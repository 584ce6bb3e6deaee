// Errors a user can fix, shown as one line on stderr with exit code 2 (main.ts). In a module of its own so
// commands do not import main.ts (which imports them lazily) just for the class.
export class CliError extends Error {
  override readonly name = 'CliError'
}
