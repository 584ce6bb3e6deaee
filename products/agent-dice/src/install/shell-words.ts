// Splits a hook command the way `sh` would split its words (quotes and backslashes), so ownership
// is decided on the script path itself, never on a substring of the command.
export function shellWords(command: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  for (let i = 0; i < command.length; i++) {
    const c = command[i]
    if (c === "'") {
      const end = command.indexOf("'", i + 1)
      const stop = end < 0 ? command.length : end
      word += command.slice(i + 1, stop)
      i = stop
      inWord = true
    } else if (c === '"') {
      i++
      while (i < command.length && command[i] !== '"') {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1])) i++
        word += command[i]
        i++
      }
      inWord = true
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i]
      inWord = true
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += c
      inWord = true
    }
  }
  if (inWord) words.push(word)
  return words
}

/** Single-quotes a path for `sh` (`'` becomes `'\''`). */
export const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`
