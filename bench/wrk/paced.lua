-- Paces wrk's requests to a fixed aggregate rate (WRK_RATE per second for this thread): every request
-- claims the next slot of an evenly spaced schedule, so the server sees a steady offered load, as from
-- many independent pollers, instead of each connection firing again the instant its answer arrives.
-- Latency is still measured by wrk from the moment a request is sent.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } wrk_timespec;
  int clock_gettime(int clk_id, wrk_timespec *tp);
]]
local ts = ffi.new("wrk_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local interval = 1000 / tonumber(os.getenv("WRK_RATE") or "10000")
local start = nil
local sent = 0

function delay()
  local now = now_ms()
  start = start or now
  local slot = start + sent * interval
  sent = sent + 1
  if slot <= now then return 0 end
  return math.floor(slot - now)
end
