// Claude Code's rule for a Bash call's `noOutputExpected` (packages/hooks-claude/README.md "Bash: stdout and noOutputExpected").
import { describe, expect, test } from 'vitest'
import { noOutputExpected } from '../src/silent-command.ts'
import { withoutBlankEnds } from '../src/tool-shapes.ts'

describe('noOutputExpected', () => {
  test.each([
    ['mv a b', true],
    ['cd /tmp', true],
    ['mkdir -p x && touch y', true],
    ['cp -r a b; chmod 600 b', true],
    ['export A=1\nunset B', true],
    ['ln -s a b | wait', true],
    ['rm x || echo failed', true], // a fallback arm after || does not count
    ['rm x || true', true],
    ['touch f > out', true], // a redirect target is not a command
    ['mkdir x 2>/dev/null', true],
    ['mv a b >| c', true], // `>|` is a redirection, not a pipe into a command `c`
    ['touch f >|out && chmod 600 f', true],
    ["mv 'a b' c", true],
    ['ls', false],
    ['echo hi', false],
    ['rm x || cat y', false], // only the print-only commands are a fallback
    ['rm x && echo done', false], // after && the echo is real output
    ['mvn install', false], // a whole name, not a prefix
    ['/bin/mv a b', false], // the name as written
    ['FOO=1 mv a b', false],
    ['cat > f <<EOF\nx\nEOF', false],
    ['', false],
    ['> out', false], // nothing but a redirection
    ["mv 'unterminated", false], // cannot be parsed
  ])('%j → %s', (command, expected) => {
    expect(noOutputExpected(command)).toBe(expected)
  })
})

describe('Bash stdout', () => {
  test.each([
    { output: 'hi from bash\n', stdout: 'hi from bash' },
    { output: '\n\n  two  \n\nlines\n  \n', stdout: '  two  \n\nlines' },
    { output: '', stdout: '' },
    { output: '\n \n', stdout: '' },
  ])('$output → $stdout', ({ output, stdout }) => expect(withoutBlankEnds(output)).toBe(stdout))
})
