// @tack/tool-fs: read / write / edit / glob / grep / todo_write over a workspace-scoped file backend.
import './log-events.ts'

export { writeFileAtomic } from './atomic-write.ts'
export { type FileBackend, type FileBackendResolver, fileBackendOf, useFileBackends } from './backend.ts'
export { FsToolsConfig } from './config.ts'
export { DIFF_CONTEXT_LINES } from './diff.ts'
export { FS_TOOLS_LOG_EVENTS, type TodoItem } from './log-events.ts'
export { type FileLink, readFileLink, shapeFileText } from './mentions/links.ts'
export { FsToolsPlugin } from './plugin.ts'
export { type DiffMeta, isDiffMeta } from './present.ts'
export { formatTodos } from './tools/todo-write.ts'
export {
  approvalOf,
  type CallApproval,
  displayPath,
  isInside,
  type ResolvedPath,
  resolveInWorkspace,
  resolveScoped,
  workspaceRootOf,
} from './workspace.ts'
