export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
  // lets `import './adapter.js'` find adapter.ts, as TypeScript's NodeNext resolution expects
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
