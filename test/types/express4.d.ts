/** express4 is the npm alias of express@4 used by test/bindings/express/express4.test.ts; typed loosely on purpose. */
declare module 'express4' {
  const express: any;
  export default express;
}
