"""Live 胜率 (issue 25): the component (section ``winprob``: the estimate after every decision and its
history), the studio's evaluator service (a worker process running the engine's play-outs, fed after
every decision, a newer decision cancelling an older run) and its worker."""
