/**
 * The parts of Redux Toolkit the store needs before first paint. The build
 * bundles this module on its own (`standaloneModule` in vite.shared.ts), so
 * the first page carries these three (~3.3 KiB gzip) and not the rest of
 * Redux Toolkit, immer, reselect and RTK Query, which arrive with the first
 * page that calls the BFF (lib/api-client).
 */
export { combineSlices, configureStore, createDynamicMiddleware } from '@reduxjs/toolkit';
