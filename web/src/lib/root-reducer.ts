/**
 * The store's reducer and middleware as parts that code loaded later can
 * extend (issue 10). The first page mounts only the toast and the offers
 * badge, on Redux's own `createStore` with the thunk middleware — the parts
 * of Redux Toolkit's `configureStore` the app uses. Redux Toolkit itself
 * (with immer and reselect, ~10 KiB gzip) and its RTK Query api of the BFF
 * (lib/api-client, ~15 KiB) arrive with the first page that calls the BFF,
 * which mounts the api's reducer and middleware here (`injectIntoStore`).
 * Redux Toolkit is one module, so any use of it on the first page would
 * bring all of it there, RTK Query's needs included.
 */
import {
  applyMiddleware,
  combineReducers,
  compose,
  legacy_createStore as createStore,
  type Middleware,
  type MiddlewareAPI,
  type Reducer,
  type UnknownAction,
} from 'redux';
import { thunk } from 'redux-thunk';
import { toastSlice } from '@/lib/toast';
import { offerArrivalsSlice } from '@/lib/offer-arrivals';

/** What a mounted part is: where it lives in the state, and its reducer. */
export interface StorePart {
  reducerPath: string;
  reducer: Reducer;
}

const reducers: Record<string, Reducer> = {
  [toastSlice.reducerPath]: toastSlice.reducer,
  [offerArrivalsSlice.reducerPath]: offerArrivalsSlice.reducer,
};
let combined = combineReducers(reducers);
const rootReducer: Reducer = (state, action) => combined(state, action);

type DispatchStep = (action: unknown) => unknown;
const lateMiddleware: Middleware[] = [];
let middlewareApi: MiddlewareAPI | null = null;
let chainFor: { next: DispatchStep; length: number; chain: DispatchStep } | null = null;

/** Runs every middleware injected so far, in order, then the rest of the store's chain. */
const dynamicMiddleware: Middleware = (api) => {
  middlewareApi = api;
  return (next) => (action) => {
    if (chainFor?.next !== next || chainFor.length !== lateMiddleware.length) {
      const initialised = lateMiddleware.map((middleware) => middleware(middlewareApi!));
      chainFor = {
        next,
        length: lateMiddleware.length,
        chain: (compose(...initialised) as (step: DispatchStep) => DispatchStep)(next),
      };
    }
    return chainFor.chain(action);
  };
};

/** The store of the app (app/store holds the one instance). */
export function createAppStore() {
  return createStore(rootReducer, applyMiddleware(thunk, dynamicMiddleware));
}

type AppStore = ReturnType<typeof createAppStore>;
let mountedIn: AppStore | null = null;
const onUserChange = new Set<() => UnknownAction>();

/** Tells the parts where to mount (app/store, once, right after creating the store). */
export function attachStore(store: AppStore): void {
  mountedIn = store;
}

/**
 * Mounts a lazily loaded reducer with its middleware, once per reducerPath.
 * @param part the reducer and where it lives in the state
 * @param middleware its middleware, if any
 * @param resetAction the action that empties it when the signed-in user changes
 * @throws Error when no store is attached yet (app/store is loaded first)
 */
export function injectIntoStore(
  part: StorePart,
  middleware: Middleware | undefined,
  resetAction: () => UnknownAction,
): void {
  if (!mountedIn) throw new Error('injectIntoStore: no store attached (import app/store first)');
  if (reducers[part.reducerPath] === part.reducer) return;
  reducers[part.reducerPath] = part.reducer;
  combined = combineReducers(reducers);
  if (middleware) lateMiddleware.push(middleware);
  onUserChange.add(resetAction);
  // Gives the new part its initial state.
  mountedIn.replaceReducer(rootReducer);
}

/** @returns the actions that empty every injected part (dispatched when the signed-in user changes) */
export function userChangeResets(): UnknownAction[] {
  return [...onUserChange].map((reset) => reset());
}
