// The warnings of a session that cannot be written: one when a failure streak starts, none while it
// lasts, one when a flush works again. The real full disk is in apps/tack/test/persist-streak.test.ts.
import { format } from 'node:util'
import { expect, test } from 'vitest'
import { PersistWarnings } from '../src/persist-warnings.ts'

test('one warning per failure streak and one on recovery; quiet while all is well', () => {
  const said: string[] = []
  const warnings = new PersistWarnings('s1', (f, ...args) => said.push(format(f, ...args)))
  warnings.succeeded()
  expect(said).toEqual([])
  warnings.failed('the end of turn 1', new Error('disk full'))
  warnings.failed('the end of turn 2', new Error('disk full'))
  warnings.failed('the final events', new Error('disk full'))
  expect(said).toHaveLength(1)
  expect(said[0]).toMatch(
    /^could not persist the end of turn 1 of session s1: Error: disk full \(kept in memory/,
  )
  warnings.succeeded()
  warnings.succeeded()
  expect(said.slice(1)).toEqual(['session s1 persists again: everything held back is now stored'])
  warnings.failed('the end of turn 4', new Error('read-only'))
  expect(said).toHaveLength(3) // a new streak warns again
})
