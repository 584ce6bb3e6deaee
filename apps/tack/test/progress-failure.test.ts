// How a failed call reads on `tack run`'s stderr (docs/decisions/0310-failures-stay-visible.md): a
// command's exit, timeout or signal from bash's result meta, else the error's code and first line; its
// output's tail as a terminal would leave each line, with colour dropped and other controls written out.
import { describe, expect, test } from 'vitest'
import { failureText, outputTail } from '../src/progress/failure.ts'

const failed = (meta: unknown, error = { code: 'COMMAND_FAILED', message: 'the command exited with 1' }) => ({
  isError: true,
  error,
  meta,
})

describe('a failed call on stderr', () => {
  test('a command names its exit code, its timeout or its signal; another tool its code and first line', () => {
    expect(failureText(failed({ exitCode: 1, timedOut: false, output: '' }))).toBe('exit code 1')
    expect(failureText(failed({ exitCode: 124, timedOut: true, output: '' }))).toBe(
      'timed out (exit code 124)',
    )
    expect(failureText(failed({ exitCode: null, signal: 'SIGKILL', timedOut: false, output: '' }))).toBe(
      'killed by SIGKILL',
    )
    expect(failureText(failed(undefined, { code: 'NOT_FOUND', message: 'no such file: a.ts\nhint' }))).toBe(
      'NOT_FOUND: no such file: a.ts',
    )
  })

  test("the tail: a progress bar's last state, colour dropped, controls written out, blank lines skipped", () => {
    const output = 'start\n\n10%\r50%\r100%\n\x1b[31mFAIL\x1b[39m a.test.ts\nbell\x07\n'
    expect(outputTail(failed({ exitCode: 1, output }), 3)).toEqual([
      '… 1 earlier line',
      '100%',
      'FAIL a.test.ts',
      'bell\\x07',
    ])
    expect(outputTail(failed({ exitCode: 1, output }), 0)).toEqual([])
    expect(outputTail(failed(undefined), 5)).toEqual([])
  })
})
