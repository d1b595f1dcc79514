import { afterEach, describe, expect, it } from 'vitest'
import { sharedAcrossNodes, type Db } from '../src/index.js'
import { ENGINES, freshTestDb } from '../src/testing/index.js'

const opened: Db[] = []
afterEach(async () => {
  for (const db of opened.splice(0)) await db.destroy()
})

describe.each(ENGINES)('sharedAcrossNodes on %s', (engine) => {
  it('says whether every API node reaches this database for the state they share', async () => {
    const db = await freshTestDb(engine)
    opened.push(db)
    expect(sharedAcrossNodes(db)).toBe(engine === 'postgres')
  })
})
