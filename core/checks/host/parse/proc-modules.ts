/** Module names from proc/modules: the first field of each well-formed line. */
export function parseProcModules(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const name = line.split(' ', 1)[0];
    if (name && /^[A-Za-z0-9_-]+$/.test(name)) names.push(name.replace(/-/g, '_'));
  }
  return names;
}
