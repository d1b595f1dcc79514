// Stryker fixture (stryker.load-failure.json): each mutant here makes the module throw while units.test.ts loads,
// the kind of mutant that the load-failure reporter must count as killed.
const UNITS = new Map([['kb', 1024]])

export const KILOBYTE = UNITS.get('kb')!.valueOf()
