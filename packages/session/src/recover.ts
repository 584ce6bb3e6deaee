// Crash recovery (SL-25): close, never truncate. A log cut by a crash may end inside a turn; the
// closing events make it well-formed again — an error result for every unanswered tool call, the
// open step's end, then `turn/end {interrupted}` — and nothing is removed.
import { deepFreeze } from '@tack/kernel'
import type { AssistantBlock, Clock, SessionEvent, SessionEventMap, SessionEventType } from './events.ts'
import { surfaceOf } from './surface.ts'

interface Open {
  turn?: number
  step?: { turn: number; step: number }
}

function openAt(events: readonly SessionEvent[], end: number): Open {
  const open: Open = {}
  for (let i = 0; i < end; i++) {
    const e = events[i]
    switch (e.type) {
      case 'turn/start':
        open.turn = (e as SessionEvent<'turn/start'>).data.turn
        open.step = undefined
        break
      case 'turn/end':
        open.turn = undefined
        open.step = undefined
        break
      case 'step/start': {
        const { turn, step } = (e as SessionEvent<'step/start'>).data
        open.step = { turn, step }
        break
      }
      case 'step/end':
        open.step = undefined
        break
    }
  }
  return open
}

/** Whether a turn is open at cut `seq` (after `events[seq - 1]`); a fork point must not be inside one. */
export function openTurnAt(events: readonly SessionEvent[], seq: number): boolean {
  const open = openAt(events, Math.max(0, Math.min(seq, events.length)))
  return open.turn !== undefined || open.step !== undefined
}

type CallBlock = Extract<AssistantBlock, { type: 'tool-call' }>

/** Tool-call blocks on the surface without a result, in call order. */
function unansweredCalls(events: readonly SessionEvent[]): CallBlock[] {
  const open: CallBlock[] = []
  for (const node of surfaceOf(events)) {
    if (node.type === 'assistant/message') {
      for (const block of (node as SessionEvent<'assistant/message'>).data.content) {
        if (block.type === 'tool-call') open.push(block)
      }
    } else if (node.type === 'tool/result') {
      const at = open.findIndex((c) => c.callId === (node as SessionEvent<'tool/result'>).data.callId)
      if (at >= 0) open.splice(at, 1)
    }
  }
  return open
}

export const INTERRUPTED_RESULT_TEXT =
  'The session was interrupted (the process ended) before this tool call returned a result. ' +
  'It may or may not have taken effect; check before repeating it.'

/**
 * The events that close an open final turn, with their seqs continuing `events` (empty when no turn
 * or step is open). Pure; the store appends them durably on load.
 */
export function recoverLog(events: readonly SessionEvent[], clock: Clock): SessionEvent[] {
  const open = openAt(events, events.length)
  if (open.turn === undefined && open.step === undefined) return []
  const time = new Date(clock.now()).toISOString()
  const tail: SessionEvent[] = []
  const add = <T extends SessionEventType>(type: T, data: SessionEventMap[T], surface = false) => {
    tail.push(
      deepFreeze({
        type,
        seq: events.length + tail.length,
        time,
        data,
        ...(surface ? { op: { kind: 'append' } } : {}),
      }),
    )
  }
  for (const call of unansweredCalls(events)) {
    add(
      'tool/result',
      {
        callId: call.callId,
        name: call.name,
        content: [{ type: 'text', text: INTERRUPTED_RESULT_TEXT }],
        isError: true,
        error: {
          name: 'InterruptedError',
          code: 'INTERRUPTED',
          message: 'the session ended before the call returned',
        },
      },
      true,
    )
  }
  if (open.step) add('step/end', { turn: open.step.turn, step: open.step.step })
  if (open.turn !== undefined) add('turn/end', { turn: open.turn, reason: { kind: 'interrupted' } })
  return tail
}
