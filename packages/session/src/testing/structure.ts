// The structure checker (SL-20): seq contiguity, turn/step nesting and enclosure (SL-5), tool pairing
// (one result per open call block, only after it, none left open at a step's end), surface-op rules
// (SL-4, SL-13) and header foldability (SL-15). Incremental, so it can watch a live session.
import { InvariantError, SessionEventError } from '../errors.ts'
import type { EpochHeader, HeaderDelta, SessionEvent } from '../events.ts'
import { isSurfaceType } from '../events.ts'
import { applyHeaderDelta, normalizeHeader } from '../request-header.ts'
import { SurfaceTracker } from '../surface.ts'

export interface StructureChecker {
  /** Checks the next event of the log; throws `InvariantError` naming the rule and seq. */
  check(event: SessionEvent): void
  /** How many events were checked. */
  readonly count: number
}

/** Types that need an open turn (SL-5); `step/*` also, by prefix. */
const IN_TURN = new Set(['user/message', 'steering/message', 'prompt/blocked'])
/** Prefixes that need an open step (SL-5). */
const IN_STEP = ['assistant/', 'tool/', 'request/']
const EVENT_TYPE = /^[a-z][a-z0-9-]*\/[a-z][a-z0-9-]*$/

interface Call {
  readonly callId: string
  readonly name: string
  called: boolean
}

type Data = { readonly [key: string]: unknown }

export function createStructureChecker(): StructureChecker {
  let count = 0
  let turn: { turn: unknown } | undefined
  let step: { turn: unknown; step: unknown } | undefined
  const surface = new SurfaceTracker()
  const open: Call[] = []
  let header: EpochHeader | undefined

  const fail = (rule: string, message: string): never => {
    throw new InvariantError(rule, message, count)
  }

  function envelope(event: SessionEvent): void {
    if (event === null || typeof event !== 'object') fail('envelope', 'an event must be an object')
    if (event.seq !== count) fail('seq', `expected seq ${count}, got ${String(event.seq)}`)
    if (typeof event.type !== 'string' || !EVENT_TYPE.test(event.type)) {
      fail('envelope', `type ${JSON.stringify(event.type)} is not a noun/verb name`)
    }
    if (typeof event.time !== 'string') fail('envelope', 'time must be an ISO string')
    if (event.data === null || typeof event.data !== 'object')
      fail('envelope', `${event.type} data must be an object`)
  }

  function surfaceOp(event: SessionEvent): void {
    if (isSurfaceType(event.type) && event.op === undefined)
      fail('surface-op', `surface event ${event.type} has no op`)
    try {
      surface.check(event.type, event.op)
    } catch (error) {
      if (error instanceof SessionEventError) fail('surface-op', error.message)
      throw error
    }
    surface.add(event)
  }

  function enclosure(event: SessionEvent, data: Data): void {
    const { type } = event
    if (type === 'turn/start') {
      if (turn) fail('enclosure', `turn/start while turn ${String(turn.turn)} is open`)
      turn = { turn: data.turn }
      return
    }
    if (type === 'turn/end') {
      if (!turn) fail('enclosure', 'turn/end with no open turn')
      if (step) fail('enclosure', `turn/end while step ${String(step.step)} is open`)
      if (data.turn !== turn!.turn)
        fail('enclosure', `turn/end names turn ${String(data.turn)}, open is ${String(turn!.turn)}`)
      turn = undefined
      return
    }
    if (type === 'step/start') {
      if (!turn) fail('enclosure', 'step/start outside a turn')
      if (step) fail('enclosure', `step/start while step ${String(step.step)} is open`)
      if (data.turn !== turn!.turn)
        fail('enclosure', `step/start names turn ${String(data.turn)}, open is ${String(turn!.turn)}`)
      step = { turn: data.turn, step: data.step }
      return
    }
    if (type === 'step/end') {
      if (!step) fail('enclosure', 'step/end with no open step')
      if (data.turn !== step!.turn || data.step !== step!.step)
        fail('enclosure', 'step/end does not match the open step')
      if (open.length > 0) fail('pairing', `step/end while call ${open[0].callId} has no result`)
      step = undefined
      return
    }
    if (type.startsWith('step/') || IN_TURN.has(type)) {
      if (!turn) fail('enclosure', `${type} outside a turn`)
      return
    }
    if (IN_STEP.some((prefix) => type.startsWith(prefix))) {
      if (!step) fail('enclosure', `${type} outside a step`)
      if ('turn' in data && 'step' in data && (data.turn !== step!.turn || data.step !== step!.step)) {
        fail(
          'enclosure',
          `${type} names step ${String(data.turn)}.${String(data.step)}, open is ${String(step!.turn)}.${String(step!.step)}`,
        )
      }
    }
  }

  function pairing(event: SessionEvent, data: Data): void {
    if (event.type === 'assistant/message' && Array.isArray(data.content)) {
      for (const block of data.content as Array<Data>) {
        if (block?.type !== 'tool-call') continue
        if (open.some((c) => c.callId === block.callId))
          fail('pairing', `call id ${String(block.callId)} is already open`)
        open.push({ callId: String(block.callId), name: String(block.name), called: false })
      }
    } else if (event.type === 'tool/call') {
      const call = open.find((c) => c.callId === data.callId)
      if (!call) fail('pairing', `tool/call ${String(data.callId)} has no open call block`)
      if (call!.name !== data.name)
        fail(
          'pairing',
          `tool/call ${String(data.callId)} names ${String(data.name)}, the block ${call!.name}`,
        )
      if (call!.called) fail('pairing', `tool/call ${String(data.callId)} logged twice`)
      call!.called = true
    } else if (event.type === 'tool/result') {
      const at = open.findIndex((c) => c.callId === data.callId)
      if (at < 0)
        fail(
          'pairing',
          `tool/result for ${String(data.callId)}, which has no open call block (missing or already answered)`,
        )
      if (open[at].name !== data.name)
        fail(
          'pairing',
          `tool/result ${String(data.callId)} names ${String(data.name)}, the block ${open[at].name}`,
        )
      open.splice(at, 1)
    }
  }

  function headerFold(event: SessionEvent, data: Data): void {
    try {
      if (event.type === 'request/header') header = normalizeHeader(data.header as EpochHeader)
      else if (event.type === 'request/header-delta') {
        if (!header) fail('header', 'header delta with no prior snapshot')
        header = applyHeaderDelta(header!, data as HeaderDelta)
      }
    } catch (error) {
      if (error instanceof InvariantError) throw error
      fail('header', `header event does not fold: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  return {
    get count() {
      return count
    },
    check(event) {
      try {
        envelope(event)
        const data = event.data as Data
        surfaceOp(event)
        enclosure(event, data)
        pairing(event, data)
        headerFold(event, data)
      } finally {
        count++
      }
    },
  }
}

/** Checks a whole log; throws `InvariantError` at the first broken rule. */
export function checkLogStructure(events: readonly SessionEvent[]): void {
  const checker = createStructureChecker()
  for (const event of events) checker.check(event)
}
