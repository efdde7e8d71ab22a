/**
 * The global toast of spec §2: one at a time, success or alert, optional
 * title and optional message, cleared after 5 s (TOAST_DURATION_MS, spec §9)
 * or by its close button. Any screen shows one with
 * `dispatch(showToast({ type, title?, message? }))`.
 */
import type { Reducer, UnknownAction } from '@reduxjs/toolkit';

export type ToastType = 'success' | 'alert';

export interface Toast {
  id: number;
  type: ToastType;
  title?: string;
  message?: string;
}

export interface ToastState {
  current: Toast | null;
}

let nextId = 1;

const SHOW = 'toast/showToast';
const CLEAR = 'toast/clearToast';

/** Replaces the toast on screen; the new one gets its own id (and its own 5 s). */
export const showToast = (toast: Omit<Toast, 'id'>) => ({
  type: SHOW,
  payload: { ...toast, id: nextId++ } as Toast,
});

/** Clears the toast with this id (a later toast stays), or whatever shows when no id is given. */
export const clearToast = (id?: number) => ({ type: CLEAR, payload: id });

const initialState: ToastState = { current: null };

// A plain reducer: createSlice would bring immer to the first page (lib/store-toolkit).
const reducer: Reducer<ToastState, UnknownAction> = (state = initialState, action) => {
  if (action.type === SHOW) return { current: action.payload as Toast };
  if (action.type === CLEAR) {
    const id = action.payload as number | undefined;
    const clears = id === undefined || state.current?.id === id;
    return clears && state.current ? { current: null } : state;
  }
  return state;
};

/** The toast's reducer, mounted in the store under `toast`. */
export const toastSlice = { name: 'toast', reducerPath: 'toast', reducer } as const;

/** Selects the toast on screen from a store that mounts the slice under `toast`. */
export const selectToast = (state: { toast: ToastState }) => state.toast.current;
