// Light shape checks for the core payloads the projections read, so a malformed payload is refused
// at `append` with a precise code instead of breaking `deriveMessages` later. Plugin-declared
// events are only required to be lossless JSON.
import { SessionEventError } from './errors.ts'
import type { JsonValue } from './events.ts'
import { isImageBlock } from './image.ts'

type Obj = { readonly [key: string]: JsonValue }

const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const bad = (type: string, what: string) => new SessionEventError('BAD_PAYLOAD', `${type}: ${what}`)

const SOURCED = new Set(['user/message', 'context/message', 'steering/message', 'prompt/blocked'])

/** `noun/verb`, lower-case words with digits and hyphens. */
const EVENT_TYPE = /^[a-z][a-z0-9-]*\/[a-z][a-z0-9-]*$/

export function checkEventType(type: unknown): asserts type is string {
  if (typeof type !== 'string' || !EVENT_TYPE.test(type)) {
    throw new SessionEventError('UNKNOWN_EVENT', `event type ${JSON.stringify(type)} is not a noun/verb name`)
  }
}

/** Throws `MISSING_SOURCE` or `BAD_PAYLOAD` when a core payload lacks what its readers need. */
export function checkCorePayload(type: string, data: JsonValue): void {
  if (SOURCED.has(type)) checkSource(type, data)
  switch (type) {
    case 'user/message':
    case 'context/message':
    case 'steering/message':
      checkBlocks(type, (data as Obj).content)
      break
    case 'prompt/blocked':
      checkBlocks(type, (data as Obj).content)
      if (typeof (data as Obj).reason !== 'string') throw bad(type, 'reason must be a string')
      break
    case 'assistant/message':
      checkAssistant(type, data)
      break
    case 'tool/result':
      checkResult(type, data)
      break
    case 'request/header':
      checkHeader(type, data)
      break
    default:
      if (CORE_OBJECT_PAYLOADS.has(type) && !isObj(data)) throw bad(type, 'payload must be an object')
  }
}

const CORE_OBJECT_PAYLOADS = new Set([
  'turn/start',
  'turn/end',
  'step/start',
  'step/end',
  'assistant/chunk',
  'tool/call',
  'request/header-delta',
])

function checkSource(type: string, data: JsonValue): void {
  const source = isObj(data) ? data.source : undefined
  const ok =
    isObj(source) &&
    typeof source.kind === 'string' &&
    source.kind.length > 0 &&
    (source.kind !== 'plugin' || (typeof source.name === 'string' && source.name.length > 0))
  if (!ok) {
    throw new SessionEventError(
      'MISSING_SOURCE',
      `${type} needs source {kind: 'user'} or {kind: 'plugin', name} (got ${JSON.stringify(source) ?? 'nothing'})`,
    )
  }
}

function checkBlocks(type: string, content: JsonValue | undefined): void {
  if (!Array.isArray(content)) throw bad(type, 'content must be an array of blocks')
  content.forEach((block, i) => {
    if (isObj(block) && block.type === 'image') {
      if (!isImageBlock(block))
        throw bad(type, `content[${i}] must be {type: 'image', mimeType, data, sha256, bytes}`)
    } else if (!isObj(block) || block.type !== 'text' || typeof block.text !== 'string') {
      throw bad(type, `content[${i}] must be {type: 'text', text: string}`)
    }
  })
}

function checkAssistant(type: string, data: JsonValue): void {
  if (!isObj(data) || !Array.isArray(data.content)) throw bad(type, 'content must be an array of blocks')
  data.content.forEach((block, i) => {
    const ok =
      isObj(block) &&
      (((block.type === 'text' || block.type === 'reasoning') && typeof block.text === 'string') ||
        (block.type === 'tool-call' &&
          typeof block.callId === 'string' &&
          typeof block.name === 'string' &&
          typeof block.arguments === 'string'))
    if (!ok) throw bad(type, `content[${i}] is not a text, reasoning or tool-call block`)
  })
  if (typeof data.finishReason !== 'string') throw bad(type, 'finishReason must be a string')
}

function checkResult(type: string, data: JsonValue): void {
  if (!isObj(data)) throw bad(type, 'payload must be an object')
  if (typeof data.callId !== 'string' || typeof data.name !== 'string')
    throw bad(type, 'callId and name must be strings')
  if (typeof data.isError !== 'boolean') throw bad(type, 'isError must be a boolean')
  checkBlocks(type, data.content)
}

function checkHeader(type: string, data: JsonValue): void {
  if (!isObj(data) || !isObj(data.header)) throw bad(type, 'header must be an object')
  if (!isObj(data.header.config) || typeof data.header.config.model !== 'string') {
    throw bad(type, 'header.config.model must be a string')
  }
  if (data.reason !== 'initial' && data.reason !== 'resume' && data.reason !== 'fallback') {
    throw bad(type, "reason must be 'initial', 'resume' or 'fallback'")
  }
}
