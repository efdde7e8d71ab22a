/**
 * The global toast of spec §2: one at a time, success or alert, optional
 * title and optional message, cleared after 5 s (TOAST_DURATION_MS, spec §9)
 * or by its close button. Any screen shows one with
 * `dispatch(showToast({ type, title?, message? }))`.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

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

export const toastSlice = createSlice({
  name: 'toast',
  initialState: { current: null } as ToastState,
  reducers: {
    /** Replaces the toast on screen; the new one gets its own id (and its own 5 s). */
    showToast: {
      reducer(state, action: PayloadAction<Toast>) {
        state.current = action.payload;
      },
      prepare(toast: Omit<Toast, 'id'>) {
        return { payload: { ...toast, id: nextId++ } };
      },
    },
    /** Clears the toast with this id (a later toast stays), or whatever shows when no id is given. */
    clearToast(state, action: PayloadAction<number | undefined>) {
      if (action.payload === undefined || state.current?.id === action.payload)
        state.current = null;
    },
  },
});

export const { showToast, clearToast } = toastSlice.actions;

/** Selects the toast on screen from a store that mounts the slice under `toast`. */
export const selectToast = (state: { toast: ToastState }) => state.toast.current;
