// The longest literal every match of a JavaScript RegExp must contain (issue 12.4): `grep` skips a
// file without it before splitting lines (and asks rg for the files holding it). Conservative by
// design: whatever it does not understand ends the current run, and an alternation outside a group
// means no literal at all, so the pre-filter never drops a file the RegExp would match.

const QUANTIFIER_MAY_SKIP = new Set(['?', '*', '{'])

export function requiredLiteral(pattern: string): string | undefined {
  let best = ''
  let run = ''
  const end = () => {
    if (run.length > best.length) best = run
    run = ''
  }
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]
    if (ch === '|') return undefined
    if (ch === '(' || ch === '[') {
      end()
      i = skipGroup(pattern, i)
      if (i === -1) return best || undefined
      // A group or class may be optional: a quantifier after it just ends nothing more.
      continue
    }
    if (QUANTIFIER_MAY_SKIP.has(ch)) {
      run = run.slice(0, -1) // the previous atom may occur zero times
      end()
      if (ch === '{') {
        const close = pattern.indexOf('}', i)
        if (close === -1) return best || undefined
        i = close
      }
      continue
    }
    if (ch === '+') {
      end() // the previous atom occurs at least once: the run so far is required, nothing after it joins
      continue
    }
    if (ch === '\\') {
      const next = pattern[i + 1]
      if (next === undefined) return best || undefined
      if (/[A-Za-z0-9]/.test(next)) {
        // A class (\d), an anchor (\b), a back-reference or an escape with arguments (\x41, \u0041,
        // \cJ, \k<n>): end the run; skip the arguments (conservatively: every letter and digit after
        // \x, \u, \c, \k, \p; every digit after a back-reference).
        end()
        i++
        const argument = /[xucpkP]/.test(next)
          ? /[A-Za-z0-9{}<>,_]/
          : /[0-9]/.test(next)
            ? /[0-9]/
            : undefined
        while (argument && i + 1 < pattern.length && argument.test(pattern[i + 1])) i++
        continue
      }
      // An escaped punctuation character is itself, unless a quantifier follows (handled above).
      run += next
      i++
      continue
    }
    if (ch === '.' || ch === '^' || ch === '$' || ch === ')' || ch === ']' || ch === '}') {
      end()
      continue
    }
    if (ch === '\n' || ch === '\r') {
      end()
      continue
    }
    run += ch
  }
  end()
  return best === '' ? undefined : best
}

/** The index of the bracket closing the group or class opened at `at`, or -1. */
function skipGroup(pattern: string, at: number): number {
  let depth = 0
  let inClass = false
  for (let i = at; i < pattern.length; i++) {
    const ch = pattern[i]
    if (ch === '\\') {
      i++
      continue
    }
    if (inClass) {
      if (ch === ']') {
        inClass = false
        if (depth === 0) return i
      }
      continue
    }
    if (ch === '[') inClass = true
    else if (ch === '(') depth++
    else if (ch === ')') {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}

/** True when every character is ASCII (rg's and JavaScript's case folding then agree). */
export function isAscii(text: string): boolean {
  return /^[\x00-\x7f]*$/.test(text)
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}
