/**
 * Set a property as an own, enumerable data property. For the key `__proto__` a plain assignment would
 * replace the object's prototype (prototype pollution from model output); this never does.
 */
export function setOwn<T extends Record<string, unknown>>(target: T, key: string, value: unknown): T {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    (target as Record<string, unknown>)[key] = value;
  }
  return target;
}
