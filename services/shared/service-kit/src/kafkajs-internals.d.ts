/** kafkajs' request queue, which ./kafka-request-queue fixes (kafkajs ships no types for it). */
declare module 'kafkajs/src/network/requestQueue/index.js' {
  /** One broker connection's queue of requests (kafkajs 2.2.4). */
  const RequestQueue: new (...args: never[]) => object;
  export default RequestQueue;
}
