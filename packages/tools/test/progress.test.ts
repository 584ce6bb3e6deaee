// A running call's progress reports (pipeline/progress.ts): logged as `tool/progress` at most once per
// interval, never after the body settled, with only well-formed fields; and the one-line text people see.
import type { SessionEventMap } from '@tack/session'
import { describe, expect, test } from 'vitest'
import { progressRecorder, progressText } from '../src/pipeline/progress.ts'

function recording(intervalMs: number) {
  const logged: Array<SessionEventMap['tool/progress']> = []
  const recorder = progressRecorder('c1', intervalMs, (type, data) => {
    expect(type).toBe('tool/progress')
    logged.push(data as SessionEventMap['tool/progress'])
  })
  return { recorder, logged }
}

describe('progressRecorder', () => {
  test('logs each report with interval 0, and none once the body has settled', () => {
    const { recorder, logged } = recording(0)
    recorder.report({ progress: 1, total: 3 })
    recorder.report({ progress: 2, total: 3, message: 'halfway' })
    recorder.end()
    recorder.report({ progress: 3, total: 3 })
    expect(logged).toEqual([
      { callId: 'c1', progress: 1, total: 3 },
      { callId: 'c1', progress: 2, total: 3, message: 'halfway' },
    ])
  })

  test('drops reports closer than the interval to the last logged one', async () => {
    const { recorder, logged } = recording(150)
    recorder.report({ progress: 1 })
    recorder.report({ progress: 2 })
    await new Promise((resolve) => setTimeout(resolve, 200))
    recorder.report({ progress: 3 })
    expect(logged.map((e) => e.progress)).toEqual([1, 3])
  })

  test('keeps only well-formed fields: no NaN, no zero total, a message cut at 500 characters', () => {
    const { recorder, logged } = recording(0)
    recorder.report({ progress: Number.NaN, total: 0, message: 'x'.repeat(2_000) })
    recorder.report({ message: '   ' })
    recorder.report({ progress: 4, total: Number.POSITIVE_INFINITY })
    expect(logged).toEqual([
      { callId: 'c1', message: 'x'.repeat(500) },
      { callId: 'c1', progress: 4 },
    ])
  })
})

test('progressText: count of total, a count alone, the message after it', () => {
  expect(progressText({ progress: 2, total: 5, message: 'indexing' })).toBe('2/5 indexing')
  expect(progressText({ progress: 40 })).toBe('40')
  expect(progressText({ message: 'warming up' })).toBe('warming up')
})
