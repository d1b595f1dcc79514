import fc from 'fast-check'

// Properties run the same cases on every machine; FC_SEED explores others (fast-check prints the seed of a failure).
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261128) })
