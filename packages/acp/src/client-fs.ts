// The client's file system (50-acp.md requirement 10): when the client advertises
// `fs.readTextFile` and `fs.writeTextFile`, the fs tools of its sessions read and write through
// `fs/read_text_file` and `fs/write_text_file`, so the model sees the editor's unsaved buffer and its
// edits land in the editor (which decides when to save). Scope, protected files, permissions and diffs
// stay tack's (docs/decisions/0094-acp-client-fs.md).
import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk'
import type { FileBackend } from '@tack/tool-fs'
import { ToolFailure } from '@tack/tools'

/** Both halves or neither: reading the buffer but writing the disk would edit a text nobody sees. */
export function offersFileSystem(capabilities: ClientCapabilities): boolean {
  return capabilities.fs?.readTextFile === true && capabilities.fs.writeTextFile === true
}

export function clientFileBackend(client: AgentContext, sessionId: string): FileBackend {
  return {
    async readText(path, signal) {
      const { content } = await asToolFailure(
        `The editor could not read ${path.requested}`,
        signal,
        client.request('fs/read_text_file', { sessionId, path: path.real }, { cancellationSignal: signal }),
      )
      return content
    },
    async writeText(path, content, signal) {
      await asToolFailure(
        `The editor could not write ${path.requested}`,
        signal,
        client.request(
          'fs/write_text_file',
          { sessionId, path: path.real, content },
          { cancellationSignal: signal },
        ),
      )
    },
  }
}

/** A client's error reaches the model as one plain line (`CLIENT_FS_FAILED`), not an SDK error's name. */
async function asToolFailure<T>(what: string, signal: AbortSignal, request: Promise<T>): Promise<T> {
  try {
    return await request
  } catch (error) {
    // A cancelled call ends as an abort, whatever the client answered to the cancellation.
    signal.throwIfAborted()
    throw new ToolFailure('CLIENT_FS_FAILED', `${what}: ${(error as Error).message}`)
  }
}
