// Issue 9 item 8: a malformed hooks file is reported with the line and column where it stops being JSON.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { describeJsonError, findJsonSyntaxProblem } from '../src/index.ts'

const accepts = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe('findJsonSyntaxProblem', () => {
  it('names the line and column of the first offending character', () => {
    expect(findJsonSyntaxProblem('{\n  "hooks": {,}\n}')).toEqual({
      line: 2,
      column: 13,
      detail: 'expected a property name in double quotes, found ","',
    })
    expect(findJsonSyntaxProblem('{"hooks": ')).toMatchObject({
      line: 1,
      column: 11,
      detail: /end of the file/,
    })
    expect(findJsonSyntaxProblem('{"a": 1,}')).toMatchObject({ line: 1, column: 9 })
    expect(findJsonSyntaxProblem('{"a": 1} x')).toMatchObject({ line: 1, column: 10 })
    expect(findJsonSyntaxProblem('{"a": tru}')).toMatchObject({ line: 1, column: 10 })
    expect(findJsonSyntaxProblem('{"a": 01}')).toMatchObject({ line: 1, column: 8 })
    expect(findJsonSyntaxProblem('{"a": "\\q"}')).toMatchObject({ line: 1, column: 9 })
    expect(findJsonSyntaxProblem('')).toMatchObject({ line: 1, column: 1 })
  })

  it('agrees with JSON.parse on every JSON value and on arbitrary texts', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined)
        expect(findJsonSyntaxProblem(text)).toBeUndefined()
      }),
    )
    const jsonish = fc.stringMatching(/^[{}[\]",:0-9a-z\\ \n.eE+-]{0,30}$/)
    fc.assert(
      fc.property(jsonish, (text) => {
        expect(findJsonSyntaxProblem(text) === undefined).toBe(accepts(text))
      }),
      { numRuns: 2000 },
    )
  })

  it('describeJsonError puts the position first', () => {
    const text = '{\n "x": }'
    let error: unknown
    try {
      JSON.parse(text)
    } catch (e) {
      error = e
    }
    expect(describeJsonError(text, error)).toBe(
      'invalid JSON at line 2, column 7: expected a value, found "}"',
    )
  })
})
