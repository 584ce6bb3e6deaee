// @tack/tools: the tool registry, defineTool, the execution pipeline and render intents.
import './log-events.ts'
import './seams.ts'

export {
  type DeclaredEscalation,
  type DeclaredPaths,
  declaredEscalation,
  declaredPaths,
  toolAccess,
  UNDECLARED_ACCESS,
} from './declarations.ts'
export type {
  HostInputCall,
  HostResponseCall,
  ToolHostMapping,
  ToolHostName,
  ToolHosts,
} from './host.ts'
export { type HostArguments, type HostDeclarations, HostMappingReader } from './host-reader.ts'
export {
  defineTool,
  isToolName,
  MAX_TOOL_TIMEOUT_MS,
  MCP_TOOL_NAME_PATTERN,
  TOOL_NAME_PATTERN,
  type ToolSpec,
} from './define-tool.ts'
export {
  CodeModeUnavailableError,
  CodeRunFailedError,
  type CodeRunFailureKind,
  InvalidToolSchemaError,
  TOOL_ERROR_CODES,
  ToolFailure,
  type ToolErrorCode,
  ToolRegistrationError,
  type ToolRegistrationCode,
} from './errors.ts'
export { TOOLS_LOG_EVENTS } from './log-events.ts'
export { ToolTimeoutError } from './pipeline/body.ts'
export { progressText } from './pipeline/progress.ts'
export { type Presenter, plainPresenter } from './present.ts'
export {
  type CallIntent,
  type CallPresentation,
  type DiffHunk,
  type ResultIntent,
  type ResultPresentation,
  TOOL_KINDS,
  type TodoItem,
  type ToolKind,
  type ToolLocation,
  type ToolPresentation,
} from './presentation.ts'
export {
  registerTool,
  ToolRegistryService,
  ToolsConfig,
  ToolsPlugin,
} from './registry.ts'
export type { FromSchema } from './schema/infer.ts'
export {
  holdToScope,
  isInside,
  type ResolvedPath,
  realPathOf,
  resolveInWorkspace,
  resolveScoped,
  workspaceRootOf,
} from './scope.ts'
export type { JsonTypeName, ToolJsonSchema, ToolParametersSchema } from './schema/subset.ts'
export { SUBSET_KEYWORDS } from './schema/subset.ts'
export { compileToolParameters, type ToolSchemaValidator } from './schema/tool-schema.ts'
export type { Validation } from './schema/validate.ts'
export * from './types.ts'
export { approvalRuleKey, SessionApprovals, type UserApproval } from './session-approvals.ts'
export { type WithheldPaths, type WithheldTest, withheldTestFor } from './withheld.ts'
export { isJsonObject, parseToolArguments } from './arguments.ts'
export { isToolsMode, setToolsMode, TOOLS_MODES, toolsModeOf } from './modes.ts'
export { type LoadingAgent, loadedTools, loadTools } from './deferred.ts'
export type {
  BindingOutcome,
  CodeBinding,
  CodeBindingPlace,
  CodeRunBudgets,
  CodeRunOutcome,
  CodeRunRequest,
  CodeRuntime,
} from './code-mode/runtime.ts'
export { jsonSchemaToTs } from './code-mode/json-schema-to-ts.ts'
export { CodeDispatch, type DispatchOptions } from './code-mode/dispatch.ts'
export { RUN_CODE, SDK_SECTION_NAME, SDK_SECTION_ORDER, sdkSectionText } from './code-mode/sdk.ts'
export { type AgentOverrides, agentOverrides } from './agent-overrides.ts'
