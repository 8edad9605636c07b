extension Clock where Duration == Swift.Duration {
    /// The time passed on this clock since this call, each time it is read.
    /// (A method of the clock, so that a clock held as `any Clock` is opened.)
    package func stopwatch() -> @Sendable () -> Duration {
        let start = now
        return { start.duration(to: self.now) }
    }
}
