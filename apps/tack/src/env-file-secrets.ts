// `$TACK_HOME/.env` is secret (`ctx.secrets`): a command never reads the file, nor inherits a variable it
// defines, even one whose name does not look secret (its values reached the process through main.ts).
import { declareSecrets } from '@tack/kernel'
import type { Context } from 'cordis'
import { readEnvFile } from './env-file.ts'

export const EnvFileSecretsPlugin = {
  name: 'env-file',
  apply(ctx: Context, config: { file: string }) {
    declareSecrets(ctx, { variables: Object.keys(readEnvFile(config.file)), files: [config.file] })
  },
}
