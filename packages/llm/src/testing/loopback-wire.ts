// What a wire renderer gives the loopback server: complete answers, the opening of a stream that is
// about to break, in-stream errors and HTTP error bodies, all as Server-Sent Events frames.
import type { AnswerPlan } from './loopback-script.ts'

export interface WireRenderer {
  /** Every frame of a complete streamed answer. */
  answer(plan: AnswerPlan, ctx: RenderContext): string[]
  /** The stream's opening and `chunks` text deltas (for truncation, mid-stream errors, hangs). */
  partial(text: string, chunks: number, ctx: RenderContext): string[]
  /** The frames that end a stream normally without saying why (no finish reason at all). */
  endWithoutFinish(): string[]
  /** A frame that carries no content and keeps the stream alive (a comment, or a ping event). */
  keepAlive(): string
  /** An error event inside a stream. */
  streamError(message: string, type: string): string
  /** The JSON body of an HTTP error response. */
  errorBody(message: string, type: string): unknown
}

export interface RenderContext {
  readonly model: string
  readonly seq: number
  /** OpenAI: `stream_options.include_usage` was set. */
  readonly includeUsage: boolean
}

/** The text deltas of a partial stream: the text, then `…` pieces. */
export function partialPieces(text: string, chunks: number): string[] {
  const out: string[] = []
  for (let i = 0; i < chunks; i++) out.push(i === 0 ? text : ' …')
  return out
}
