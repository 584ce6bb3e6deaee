// Quoting for the exec form of hooks (`command` + `args`, 40-hooks.md A1), which run through `bash -c`.

/** `arg` as one bash word: single-quoted, with embedded single quotes spelled `'\''`. */
export function quoteShellArg(arg: string): string {
  return `'${arg.replaceAll("'", `'\\''`)}'`
}

/** `command` followed by each of `args` quoted, ready for `bash -c`. */
export function commandLine(command: string, args: readonly string[] = []): string {
  return [command, ...args.map(quoteShellArg)].join(' ')
}
