// What every fs tool of one plugin instance shares: its validated Config and its observations.
import type { FsToolsConfig } from './config.ts'
import type { Observations } from './observations.ts'

export interface FsEnv {
  readonly config: FsToolsConfig
  readonly observations: Observations
}
