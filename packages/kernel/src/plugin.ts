// `definePlugin`: a cordis plugin whose `Config` is one of our object schemas. Callers pass the
// input shape (every field with a default may be omitted); `apply` receives the validated output,
// because cordis validates `config` with `Config` (Standard Schema) before calling it.
import type { Context, Inject } from 'cordis'
import type { Field, ObjectSchema } from './config.ts'

type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T

export type ConfigOf<S> =
  S extends ObjectSchema<infer Shape>
    ? { [K in keyof Shape]: Shape[K] extends Field<infer V> ? V : never }
    : never
export type ConfigInput<S> = DeepPartial<ConfigOf<S>>

export interface PluginDefinition<S extends ObjectSchema<Record<string, Field<unknown>>>> {
  readonly name: string
  readonly Config: S
  readonly inject?: Inject
  apply(ctx: Context, config: ConfigOf<S>): unknown
}

export interface TackPlugin<S extends ObjectSchema<Record<string, Field<unknown>>>> {
  readonly name: string
  readonly Config: S
  readonly inject?: Inject
  apply(ctx: Context, config: ConfigInput<S>): unknown
}

export function definePlugin<S extends ObjectSchema<Record<string, Field<unknown>>>>(
  def: PluginDefinition<S>,
): TackPlugin<S> {
  return {
    name: def.name,
    Config: def.Config,
    ...(def.inject ? { inject: def.inject } : {}),
    // cordis has already replaced the input with the schema's validated output here.
    apply: (ctx, config) => def.apply(ctx, config as ConfigOf<S>),
  }
}
