// @tack/codex-protocol: Codex's own facts, in one leaf package (docs/decisions/0210-host-protocol-packages.md):
// tool names and matcher aliases, the apply_patch text format both ways, the Bash input. The Codex hooks
// bridge reads tools through @tack/tools' `HostMappingReader`; tools declare their Codex mapping (`host.codex`) with its helpers.
export {
  addFilePatch,
  applyHunks,
  BEGIN_PATCH,
  END_PATCH,
  type FilePatch,
  type ParsedPatch,
  type PatchHunk,
  parseSingleFilePatch,
  replacementPatch,
  updateFilePatch,
} from './apply-patch.ts'
export {
  type CodexToolInput,
  type CodexToolName,
  codexBashInput,
  codexCommandOf,
  codexEditInput,
  codexToolName,
  codexWriteInput,
  matcherSubjects,
  patchPath,
  replacementFromCodexPatch,
  writeFromCodexPatch,
} from './tool-shapes.ts'
export type { CodexInputCall, CodexToolMapping } from './tool-view.ts'
