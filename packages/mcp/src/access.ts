// What an MCP tool does, from its annotations (spec 55-mcp.md M3): `readOnlyHint: true` → read,
// `openWorldHint: true` → network, otherwise execute (the server runs code whose effects tack cannot
// know). `destructiveHint: true` (explicitly; the protocol's default is not taken as a claim) makes
// every call asked outside yolo (the tool's `alwaysAsk`).
import type { ToolAccess, ToolKind } from '@tack/tools'

export interface McpAnnotations {
  readonly readOnlyHint?: boolean
  readonly openWorldHint?: boolean
  readonly destructiveHint?: boolean
}

export function accessOf(annotations: McpAnnotations | undefined): ToolAccess {
  if (annotations?.readOnlyHint === true) return 'read'
  if (annotations?.openWorldHint === true) return 'network'
  return 'execute'
}

export function kindOf(access: ToolAccess): ToolKind {
  switch (access) {
    case 'read':
      return 'read'
    case 'network':
      return 'fetch'
    case 'execute':
      return 'execute'
    case 'write':
    case 'session':
      return 'other'
    default:
      return access satisfies never
  }
}

export const isDestructive = (annotations: McpAnnotations | undefined): boolean =>
  annotations?.destructiveHint === true
