// What every fs tool of one plugin instance shares: its validated Config and its observations.
import type { FsToolsConfig } from './config.ts'
import type { Observations } from './observations.ts'
import type { ToolCallContext, WithheldTest } from '@tack/tools'

export interface FsEnv {
  readonly config: FsToolsConfig
  readonly observations: Observations
  /** Which files deny rules keep out of a search's results (withheld.ts); absent: none. */
  readonly withheld?: (tool: string, call: ToolCallContext) => Promise<WithheldTest | undefined>
}
