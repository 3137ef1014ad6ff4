// The app's own TCP switch (sync/host/tcp-switch.ts, the demo's "service offline"), for tests that
// take a service on this computer away and back.
export { TcpSwitch } from '../../sync/host/tcp-switch';
