/** How a client's failure starts its message: `Client "name" (provider): `. */
export function clientPrefix(clientName: string, provider: string): string {
  return `Client "${clientName}" (${provider}): `;
}
