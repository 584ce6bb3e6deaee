// Splits a slash-command argument string into argv: whitespace separates, single or double quotes
// group (`/dice register x --message "Check the tests"`).
export function tokenize(input: string): string[] {
  const out: string[] = []
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g
  for (let m = re.exec(input); m !== null; m = re.exec(input)) out.push(m[1] ?? m[2] ?? m[3])
  return out
}
