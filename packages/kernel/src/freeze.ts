/** Recursively freezes plain objects and arrays in place and returns the value. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value
  Object.freeze(value)
  for (const key of Object.keys(value as object)) deepFreeze((value as Record<string, unknown>)[key])
  return value
}
