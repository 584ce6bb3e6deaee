// How a tack tool call looks in an ACP client (50-acp.md requirement 8): its kind, the files it
// follows, and its call-time content — all from the tool's declared presentation (@tack/tools), which
// the session's registry resolves. Shared by live updates and the history replay of session/load, so
// both show a call the same way. Nothing here knows a tool by name.
import { isAbsolute, resolve } from 'node:path'
import type { ToolCallContent, ToolCallLocation } from '@agentclientprotocol/sdk'
import { type CallPresentation, parseToolArguments } from '@tack/tools'

/** The call's arguments as an object (the model's raw text may be anything). */
export const parseArguments = parseToolArguments

/** An absolute path for the client: ACP paths are always absolute. */
export function absolutePath(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path)
}

/** The places a call touches, for the client's follow-along. */
export function toolLocations(shown: CallPresentation, cwd: string): ToolCallLocation[] {
  return shown.locations.map((at) => ({
    path: absolutePath(cwd, at.path),
    ...(at.line !== undefined && { line: at.line }),
  }))
}

/**
 * What a call shows before it runs: the change it asks for as a snippet diff (an edit's old → new, a new
 * file's content); the completed update replaces it with the applied hunks (result-content.ts).
 */
export function callContent(shown: CallPresentation, cwd: string): ToolCallContent[] {
  return shown.intents.flatMap((intent): ToolCallContent[] =>
    intent.kind === 'diff'
      ? [
          {
            type: 'diff',
            path: absolutePath(cwd, intent.path),
            oldText: intent.oldText,
            newText: intent.newText,
          },
        ]
      : [],
  )
}

/** Whether the call's card shows a snippet diff (which a sub-call's summary must not replace). */
export const showsSnippet = (shown: CallPresentation): boolean =>
  shown.intents.some((intent) => intent.kind === 'diff')
