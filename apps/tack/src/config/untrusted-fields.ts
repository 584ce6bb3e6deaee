// Every `plugins.<plugin>.<field>` of every catalog plugin, classified for an untrusted project config
// (docs/decisions/0013-workspace-trust.md, docs/security.md). Fields, never whole plugins: a wildcard let
// `fs.ripgrep` (a program to run, unsandboxed) through when `fs` gained it. A field missing here is held
// back, and `apps/tack/test/untrusted-fields.test.ts` fails until a new field is classified.
// A path-valued field also says where its paths are (`pathValued`): a relative one in a config file is
// made absolute against that file's folder when the file is read (layer-paths.ts,
// docs/decisions/0130-config-relative-paths.md).

/** Why a field is held back from an untrusted project: the classes of docs/security.md. */
export const HELD = {
  runs: 'names a program or code for tack to run or load',
  path: 'a path that widens what tack reads, writes or removes',
  network: 'a network target, or lets requests reach more of the network',
  env: 'environment names or values (which secrets go where)',
  gate: 'turns a safety gate off or widens it',
  cost: 'lifts a bound the user set on what a run costs them',
  kept: 'decides what tack keeps on disk or how the store is written',
  notOffered: 'a limit not reviewed for projects; held back until it is',
} as const

export type HeldReason = (typeof HELD)[keyof typeof HELD]

/**
 * `'harmless'`: kept from an untrusted project. A reason: always dropped. `'narrowing'`: kept only when its
 * value narrows what the user's own config allows (decided by the filter in untrusted.ts).
 */
export type FieldClass = 'harmless' | 'narrowing' | HeldReason

/**
 * Where a field holds paths: `path` a string; `paths` a list of strings; `program` a string that is a path
 * only when it holds a `/` (else a name looked up on PATH, or a keyword such as `auto`), as a shell reads a
 * command; `{ each }` a list of objects whose named keys are paths; `{ eachValue }` a map (name → object)
 * whose objects' named keys are paths.
 */
export type PathShape =
  | 'path'
  | 'paths'
  | 'program'
  | { readonly each: readonly string[] }
  | { readonly eachValue: readonly string[] }

/** A path-valued field: its class for an untrusted project and where its paths are. */
export interface PathValued {
  readonly class: FieldClass
  readonly paths: PathShape
}

const pathValued = (fieldClass: FieldClass, paths: PathShape = 'path'): PathValued => ({
  class: fieldClass,
  paths,
})

export const UNTRUSTED_PLUGIN_FIELDS: Readonly<Record<string, FieldClass | PathValued>> = {
  'agent.maxStepsPerTurn': 'narrowing', // only lower: a higher one lifts the turn's bound
  'agent.maxParallelTools': 'harmless',
  'agent.maxIdenticalCalls': 'narrowing', // only lower and positive: 0 turns the loop detector off
  'agent.maxTurnTokens': HELD.cost,
  'agent.model': 'narrowing', // any model but `scripted/…`, which plays a workspace file as the model

  'tools.mode': 'harmless',
  'tools.dispatchSummaryMaxChars': HELD.notOffered,
  'tools.abortGraceMs': 'harmless',
  'tools.approvalPreviewMaxChars': HELD.gate, // a smaller one hides the change from the person approving it
  'tools.progressIntervalMs': HELD.kept, // 0 logs every progress report a server sends
  'tools.maxImageBytes': HELD.cost, // a higher one keeps larger images, sent again with every request
  'tools.maxImageLongEdge': HELD.cost, // the same, in pixels
  'tools.dispatchArgumentsMaxChars': HELD.kept, // how much of a Code Mode sub-call's arguments the log keeps

  'codeRuntime.computeMs': HELD.notOffered,
  'codeRuntime.maxWallMs': HELD.notOffered,
  'codeRuntime.memoryBytes': HELD.notOffered,
  'codeRuntime.maxLogBytes': HELD.notOffered,
  'codeRuntime.stopGraceMs': 'harmless', // only how long an aborted program's thread is given before it is ended

  'llm.retry': 'harmless',
  'llm.images': HELD.cost, // larger images in a prompt, sent again with every later request
  'llm.endpoints': HELD.network, // also apiKeyEnv and headers: which key is sent where
  'llm.baseUrl': HELD.network,
  'llm.firstByteTimeoutMs': 'harmless',
  'llm.idleTimeoutMs': 'harmless',
  'llm.scripted': HELD.runs, // a workspace file would play the model

  'store.dataDir': pathValued(HELD.path),
  'store.path': HELD.path, // relative to dataDir, by its documented meaning: not to the config file
  'store.journalMode': HELD.kept,
  'store.busyTimeoutMs': HELD.kept,
  'store.leaseTimeoutMs': HELD.kept,
  'store.synchronous': HELD.kept,
  // A workspace naming the database would send the person's sessions to another server.
  'store.url': HELD.network,
  'store.poolSize': HELD.notOffered,
  'store.connectTimeoutMs': HELD.notOffered,
  'store.queryTimeoutMs': HELD.notOffered,
  // The fleet's settings are the worker's and the submitter's, read from the folder they start in; a
  // repository a job checks out is never where they come from, and none is reviewed for projects.
  'fleet.gracefulStopMs': HELD.notOffered,
  'fleet.retryLimit': HELD.notOffered,
  'fleet.heartbeatSeconds': HELD.notOffered,
  'fleet.leaseCheckMs': HELD.notOffered,
  'fleet.pollIntervalMs': HELD.notOffered,
  'fleet.maxJobMinutes': HELD.notOffered,

  'fs.readLimit': 'harmless',
  'fs.readMaxLineLength': 'harmless',
  'fs.readMaxBytes': 'harmless',
  'fs.readStreamMinSize': 'harmless',
  'fs.readImageMaxBytes': HELD.cost, // larger images in the log, sent again with every later request
  'fs.readImageMaxLongEdge': HELD.cost, // the same, in pixels
  'fs.streamChunkBytes': 'harmless', // a read size; readStreamMinSize already lets a file be loaded whole
  'fs.grepMaxLineLength': 'harmless',
  'fs.diffMaxChars': 'harmless',
  'fs.diffTimeoutMs': 'harmless',
  'fs.searchTimeoutMs': 'harmless', // a cap on the model's own pattern, run in a worker either way
  'fs.globMaxResults': 'harmless',
  'fs.ripgrep': pathValued(HELD.runs, 'program'),
  'fs.grepMaxMatches': 'harmless',
  'fs.mentionMaxBytes': 'harmless', // as readMaxBytes: the same text, which the model could read anyway
  'fs.mentionMaxFiles': 'harmless', // the person's own mentions; 0 turns them off
  'fs.mentionIndexMaxFiles': 'harmless', // the size of the prompt box's completion list, nothing read

  'bash.timeoutMs': 'harmless',
  'bash.maxTimeoutMs': 'harmless',
  'bash.maxOutputBytes': 'harmless',
  'bash.graceMs': 'harmless',
  'bash.envAllow': HELD.env,
  'bash.scratchRoot': pathValued(HELD.path),
  'bash.scratchMaxAgeHours': HELD.kept,
  'bash.envDeny': HELD.env, // a project's list would replace the user's
  'bash.sandbox': HELD.gate,
  'bash.sandboxNetwork': HELD.network,
  'bash.sandboxWritable': pathValued(HELD.path, 'paths'),
  'bash.sandboxDenyRead': pathValued(HELD.path, 'paths'), // replaces the built-in list of credentials
  'bash.sandboxExtraDenyRead': pathValued(HELD.path, 'paths'), // a project's list would replace the user's
  'bash.tackHome': pathValued(HELD.path),
  'bash.env': HELD.env,

  'web.timeoutMs': HELD.notOffered,
  'web.maxBytes': HELD.notOffered,
  'web.maxResultChars': HELD.notOffered,
  'web.maxRedirects': HELD.notOffered,
  'web.allowLoopback': HELD.network,
  'web.allowPrivateNetworks': HELD.network,
  'web.allowLinkLocal': HELD.network,
  'web.userAgent': HELD.notOffered,
  'web.searchProvider': HELD.network,
  'web.searchApiKeyEnv': HELD.env,
  'web.searchBaseUrl': HELD.network,
  'web.searchMaxResults': HELD.notOffered,
  'web.env': HELD.env,

  'permissions.mode': 'narrowing',
  'permissions.allow': HELD.gate,
  'permissions.deny': 'harmless',

  'subagent.maxDepth': 'harmless',

  // Turning project instructions off or reading less of them only narrows what the model is told.
  // A project must not turn off the user's undo, make it keep more, or move the store.
  'checkpoints.enabled': HELD.gate,
  'checkpoints.keep': HELD.kept,
  'checkpoints.maxFileBytes': HELD.kept,
  'checkpoints.root': pathValued(HELD.path),
  'instructions.enabled': 'harmless',
  'instructions.maxBytes': 'harmless',
  'instructions.home': pathValued(HELD.path),

  // Skills and commands are words; a project may read fewer of them, never add folders or its own view of trust.
  'skills.paths': pathValued(HELD.path, 'paths'),
  'skills.catalogMaxBytes': HELD.cost, // a higher one sends a longer catalog with every request
  'skills.maxFileBytes': 'harmless',
  'skills.folders': pathValued(HELD.path, { each: ['dir'] }),
  'skills.trusted': HELD.gate,
  'skills.cwd': pathValued(HELD.path),

  // How much history is kept and when it is summarised changes no access.
  'compaction.auto': 'harmless',
  'compaction.contextWindow': 'harmless',
  'compaction.thresholdRatio': 'harmless',
  'compaction.retainTokens': 'harmless',
  'compaction.charsPerToken': 'harmless',
  'compaction.summarizationModel': HELD.network, // where the conversation is sent
  'compaction.maxTokens': 'harmless',
  'compaction.compactionRetries': 'harmless',

  'hooksClaude.sources': pathValued(HELD.runs, { each: ['path', 'pluginRoot'] }),
  'hooksClaude.discover': HELD.runs,
  'hooksClaude.projectDir': pathValued(HELD.path),
  'hooksClaude.stderrSummaryMaxChars': 'harmless',
  'hooksClaude.maxConsecutiveStopBlocks': 'harmless',
  'hooksClaude.awaitSessionStart': 'harmless',
  'hooksClaude.configWatchDebounceMs': 'harmless', // how long a settings file's changes settle before ConfigChange
  'hooksClaude.transcriptDir': pathValued(HELD.path),
  'hooksClaude.home': pathValued(HELD.path),
  'hooksClaude.dataDir': pathValued(HELD.path),
  'hooksClaude.tackHome': HELD.gate, // the trust store (the CLI pins it to $TACK_HOME anyway)
  'hooksClaude.assumeTrusted': HELD.gate,

  'hooksCodex.sources': pathValued(HELD.runs, 'paths'),
  'hooksCodex.discover': HELD.runs,
  'hooksCodex.codexHome': pathValued(HELD.path),
  'hooksCodex.projectDir': pathValued(HELD.path),
  'hooksCodex.dataDir': pathValued(HELD.path),
  'hooksCodex.tackHome': HELD.gate, // the trust store (the CLI pins it to $TACK_HOME anyway)
  'hooksCodex.transcriptDir': pathValued(HELD.path),
  'hooksCodex.assumeTrusted': HELD.gate,
  'hooksCodex.trust': HELD.gate,
  'hooksCodex.stderrSummaryMaxChars': 'harmless',
  'hooksCodex.maxConsecutiveStopBlocks': 'harmless',
  'hooksCodex.awaitSessionStart': 'harmless',

  'acp.clientTerminal': HELD.gate, // bash would run outside tack's sandbox
  'acp.terminalTimeoutMs': HELD.notOffered,
  'acp.terminalOutputBytes': HELD.notOffered,
  'acp.maxMessageBytes': HELD.notOffered, // read from the folder tack acp starts in, for the whole connection

  'run.failureTailLines': 'harmless', // how much of a failed command's output stderr shows
  'run.summary': 'harmless',
  'serve.host': HELD.network, // a project must not make the view listen beyond loopback
  'serve.port': 'harmless',
  'serve.pollMs': 'harmless',
  'serve.tokenEnv': HELD.env, // which secret is the token
  'tui.failureTailLines': 'harmless',
  'tui.innerCallsShown': 'harmless',
  'tui.historyEntries': HELD.kept,
  'tui.diffMaxLines': 'harmless',
  'tui.permissionNotifyMs': 'harmless', // when the Notification hook moment comes; hooks are trusted config
  'tui.idleNotifyMs': 'harmless',

  'dice.base': pathValued(HELD.path),
  'dice.enabled': 'harmless',

  // MCP servers run programs and reach the network with the user's tokens; approval is the user's call
  // (a project's servers come from its .mcp.json, trusted and approved).
  'mcp.servers': pathValued(HELD.runs, { eachValue: ['cwd'] }), // a stdio server's cwd: from its file's folder
  'mcp.approve': HELD.gate,
  'mcp.codexServers': HELD.runs,

  'mods.mods': pathValued(HELD.runs, { each: ['dir'] }),
  'mods.hookBudgetMs': HELD.notOffered,
  'mods.catchBudgetMs': HELD.notOffered,
  'mods.promptEditBudgetMs': HELD.notOffered,
  'mods.sessionEndBudgetMs': HELD.notOffered,
  'mods.dataDir': pathValued(HELD.path),

  'mcp.startupTimeoutMs': HELD.notOffered,
  'mcp.connectTimeoutMs': HELD.notOffered,
  'mcp.toolTimeoutMs': HELD.notOffered,
  'mcp.maxResultBytes': HELD.cost, // a higher one sends more of every MCP result to the model
  'mcp.stderrMaxBytes': HELD.notOffered,
  'mcp.maxMessageBytes': HELD.notOffered,
  'mcp.maxDescriptionChars': HELD.cost, // a higher one sends more of every tool's description
  'mcp.maxInstructionsChars': HELD.cost, // a higher one sends more of a server's instructions // a higher one lets a server make tack hold a larger message
  'mcp.restartBackoffMs': HELD.notOffered,
  'mcp.restartBackoffMaxMs': HELD.notOffered,
  'mcp.deferAbove': HELD.cost, // a higher one sends every MCP tool's schema on every request
}

function entryOf(plugin: string, field: string): FieldClass | PathValued | undefined {
  const key = `${plugin}.${field}`
  return Object.hasOwn(UNTRUSTED_PLUGIN_FIELDS, key) ? UNTRUSTED_PLUGIN_FIELDS[key] : undefined
}

/** How an untrusted project's `plugins.<plugin>.<field>` is treated; unclassified fields are held back. */
export function untrustedFieldClass(plugin: string, field: string): FieldClass {
  const entry = entryOf(plugin, field)
  if (entry === undefined) return HELD.notOffered
  return typeof entry === 'string' ? entry : entry.class
}

/** Where `plugins.<plugin>.<field>` holds paths; undefined when it holds none (or is unknown). */
export function pathShapeOf(plugin: string, field: string): PathShape | undefined {
  const entry = entryOf(plugin, field)
  return typeof entry === 'object' ? entry.paths : undefined
}
