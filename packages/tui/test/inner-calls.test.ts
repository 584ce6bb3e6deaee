// A card's inner calls (docs/decisions/0310-failures-stay-visible.md): the latest ones listed with their
// status, the earlier ones counted with their failures — a failure that scrolled off is still said.
import { describe, expect, test } from 'vitest'
import { renderToolCard } from '../src/components/tool-card.ts'
import { addInner, endInner, type InnerCalls, settleInner } from '../src/inner-calls.ts'
import type { ToolEntry } from '../src/view-model.ts'
import { plain, strip } from './support.ts'

const program = (inner: InnerCalls): ToolEntry => ({
  kind: 'tool',
  callId: 'c1',
  name: 'run_code',
  keyArg: '(4 lines)',
  status: 'done',
  loggedAt: 1_000,
  startedAt: 1_000,
  endedAt: 2_000,
  inner,
})

describe('inner calls', () => {
  test('at most `max` are listed; the earlier ones are counted with their failures', () => {
    let inner: InnerCalls | undefined
    inner = addInner(inner, { id: 'a', label: 'read a.ts', status: 'failed', detail: 'NOT_FOUND' }, 2)
    inner = addInner(inner, { id: 'b', label: 'read b.ts', status: 'done' }, 2)
    inner = addInner(inner, { id: 'c', label: 'bash npm test', status: 'running' }, 2)
    settleInner(inner, 'c', 'failed', 'exit code 1')
    const lines = renderToolCard(program(inner), plain, 80).map(strip).slice(1)
    expect(lines).toEqual([
      '    ↳ … 1 earlier call (1 failed)',
      '    ↳ ✓ read b.ts',
      '    ↳ ✗ bash npm test — exit code 1',
    ])
  })

  test('a denied call says so; one still running when its parent ended did not finish', () => {
    let inner = addInner(undefined, { id: 'a', label: 'bash rm -rf x', status: 'running' }, 8)
    settleInner(inner, 'a', 'denied')
    inner = addInner(inner, { id: 'b', label: 'bash sleep 9', status: 'running' }, 8)
    endInner(inner)
    expect(renderToolCard(program(inner), plain, 80).map(strip).slice(1)).toEqual([
      '    ↳ ✗ bash rm -rf x — denied',
      '    ↳ ✗ bash sleep 9',
    ])
  })

  test('a result for a call that scrolled off counts as an earlier failure when it failed', () => {
    let inner = addInner(undefined, { id: 'a', label: 'bash make', status: 'running' }, 1)
    inner = addInner(inner, { id: 'b', label: 'bash ls', status: 'done' }, 1)
    settleInner(inner, 'a', 'failed', 'exit code 2')
    expect(inner).toMatchObject({ earlier: 1, earlierFailed: 1 })
  })
})
