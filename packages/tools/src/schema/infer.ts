// Type inference from a literal schema of the defineTool subset (TL-4): `FromSchema<typeof schema>`
// is the argument type a tool body receives after validation. Properties that are required or have a
// `default` are non-optional (defaults are filled before the body runs); `additionalProperties`
// omitted or `false` adds no index signature. Types only — the validator is validate.ts.

type Simplify<T> = { [K in keyof T]: T[K] } & {}

type Mutable<T> = T extends readonly unknown[]
  ? { -readonly [K in keyof T]: Mutable<T[K]> }
  : T extends object
    ? { -readonly [K in keyof T]: Mutable<T[K]> }
    : T

type TypeNameOf<T> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : never

type ArrayOf<S> = S extends { readonly items: infer I } ? FromSchema<I>[] : unknown[]

type PropertiesOf<S> = S extends { readonly properties: infer P } ? P : {}
type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never
type DefaultedOf<P> = { [K in keyof P]: P[K] extends { readonly default: unknown } ? K : never }[keyof P]

type AdditionalOf<S> = S extends { readonly additionalProperties: true }
  ? { [key: string]: unknown }
  : S extends { readonly additionalProperties: infer A extends object }
    ? keyof PropertiesOf<S> extends never
      ? { [key: string]: FromSchema<A> }
      : { [key: string]: unknown }
    : {}

type ObjectOf<S, P = PropertiesOf<S>, K = RequiredOf<S> | DefaultedOf<P>> = Simplify<
  { -readonly [N in keyof P as N extends K ? N : never]: FromSchema<P[N]> } & {
    -readonly [N in keyof P as N extends K ? never : N]?: FromSchema<P[N]>
  } & AdditionalOf<S>
>

type OneType<S, T> = T extends 'array' ? ArrayOf<S> : T extends 'object' ? ObjectOf<S> : TypeNameOf<T>

type FromType<S> = S extends { readonly type: infer T }
  ? T extends readonly (infer U)[]
    ? U extends unknown
      ? OneType<S, U>
      : never
    : OneType<S, T>
  : S extends { readonly properties: object }
    ? ObjectOf<S>
    : unknown

type FromAnyOf<B> = B extends unknown ? FromSchema<B> : never

/** The value type a literal schema of the subset describes. */
export type FromSchema<S> = S extends { readonly const: infer C }
  ? Mutable<C>
  : S extends { readonly enum: readonly (infer E)[] }
    ? Mutable<E>
    : S extends { readonly anyOf: readonly (infer B)[] }
      ? FromAnyOf<B>
      : FromType<S>
