// Claude Code's `noOutputExpected` for a Bash call (packages/hooks-claude/README.md "Bash: stdout and
// noOutputExpected"): true when the command prints nothing by design, so a hook can tell "no output"
// from "the output went missing". Claude Code decides it from the command text alone, the same way
// whatever the command then printed:
// - the command line is split into top-level commands on `&&`, `||`, `|`, `;` (and newlines); output
//   redirections (`> f`, `>> f`, `2>&1`, …) are not commands;
// - a command's name is its first word as written (no `VAR=x` or path stripping: `/bin/mv` is not `mv`);
// - `echo`, `printf`, `true`, `false` and `:` right after `||` are a fallback arm and do not count;
// - every other command must be one of mv, cp, rm, mkdir, rmdir, chmod, chown, chgrp, touch, ln, cd,
//   export, unset, wait — and at least one must be there (an empty line or a bare redirection is not
//   silent); a line that cannot be parsed is not silent.
import { bashSegments } from './bash-command.ts'

const SILENT = new Set([
  'mv',
  'cp',
  'rm',
  'mkdir',
  'rmdir',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'ln',
  'cd',
  'export',
  'unset',
  'wait',
])
/** Commands that only print: after `||` they are a diagnostic arm, not the command's output. */
const FALLBACK = new Set(['echo', 'printf', 'true', 'false', ':'])

/** An output redirection with its target attached (`>out`, `2>/dev/null`, `2>&1`, `&>>log`). */
const REDIRECT_WITH_TARGET = /^(?:\d+|&)?(?:>>?|>&|>\|)\S/
/** An output redirection whose target is the next word (`>`, `2>>`, `&>`). */
const REDIRECT_ALONE = /^(?:\d+|&)?(?:>>?|>&|>\|)$/

/** The first word of a command that is not part of an output redirection, if any. */
function commandName(text: string): string | undefined {
  const words = text.split(/\s+/).filter((w) => w !== '')
  for (let i = 0; i < words.length; i++) {
    if (REDIRECT_ALONE.test(words[i])) i++
    else if (!REDIRECT_WITH_TARGET.test(words[i])) return words[i]
  }
  return undefined
}

/** Whether Claude Code would report `noOutputExpected: true` for `command`. */
export function noOutputExpected(command: string): boolean {
  const segments = bashSegments(command)
  if (!segments) return false
  let counted = false
  for (const { text, operatorBefore } of segments) {
    const name = commandName(text)
    if (name === undefined) continue
    if (operatorBefore === '||' && FALLBACK.has(name)) continue
    counted = true
    if (!SILENT.has(name)) return false
  }
  return counted
}
