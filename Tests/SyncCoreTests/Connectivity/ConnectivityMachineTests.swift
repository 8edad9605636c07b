import Testing

@testable import SyncCore

@Suite struct ConnectivityMachineTests {
    @Test func startsOnlineWithADefaultRouteAndOfflineWithout() {
        var machine = ConnectivityMachine(maxProbeInterval: .seconds(30))
        #expect(machine.handle(.started(hasDefaultRoute: true)) == [.publish(online: true)])
        var routeless = ConnectivityMachine(maxProbeInterval: .seconds(30))
        #expect(routeless.handle(.started(hasDefaultRoute: false)) == [.publish(online: false), .probe(after: .zero)])
        #expect(!routeless.online)
    }

    @Test func aFailedRequestGoesOfflineAndProbesWithBackoffUpToTheMaximum() {
        var machine = ConnectivityMachine(maxProbeInterval: .seconds(10))
        _ = machine.handle(.started(hasDefaultRoute: true))
        #expect(machine.handle(.requestFoundOffline) == [.publish(online: false), .probe(after: .seconds(1))])
        // Further failures while offline change nothing.
        #expect(machine.handle(.requestFoundOffline) == [])
        var delays: [Duration] = []
        for _ in 0..<5 {
            for case .probe(let delay) in machine.handle(.probed(reachable: false)) { delays.append(delay) }
        }
        #expect(delays == [.seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
        #expect(machine.handle(.probed(reachable: true)) == [.publish(online: true)])
        #expect(machine.online)
        // A later outage starts the backoff again from 1 s.
        #expect(machine.handle(.requestFoundOffline) == [.publish(online: false), .probe(after: .seconds(1))])
        #expect(machine.handle(.probed(reachable: false)) == [.probe(after: .seconds(2))])
    }

    @Test func losingTheDefaultRouteGoesOfflineAtOnce() {
        var machine = ConnectivityMachine(maxProbeInterval: .seconds(30))
        _ = machine.handle(.started(hasDefaultRoute: true))
        #expect(machine.handle(.routesChanged(hasDefaultRoute: true)) == [])
        #expect(
            machine.handle(.routesChanged(hasDefaultRoute: false)) == [.publish(online: false), .probe(after: .zero)])
    }

    @Test func withoutADefaultRouteOnlineRouteChangesDoNotGoOffline() {
        // A machine that reaches its APIs over a local network, with no default route.
        var machine = ConnectivityMachine(maxProbeInterval: .seconds(30))
        _ = machine.handle(.started(hasDefaultRoute: false))
        _ = machine.handle(.probed(reachable: true))
        #expect(machine.online)
        #expect(machine.handle(.routesChanged(hasDefaultRoute: false)) == [])
    }

    @Test func aKernelChangeWhileOfflineProbesAtOnceAndResetsTheBackoff() {
        var machine = ConnectivityMachine(maxProbeInterval: .seconds(30))
        _ = machine.handle(.started(hasDefaultRoute: true))
        _ = machine.handle(.requestFoundOffline)
        _ = machine.handle(.probed(reachable: false))
        _ = machine.handle(.probed(reachable: false))
        #expect(machine.handle(.routesChanged(hasDefaultRoute: true)) == [.probe(after: .zero)])
        #expect(machine.handle(.probed(reachable: false)) == [.probe(after: .seconds(1))])
        // The kernel alone never brings the machine back: only a probe does.
        #expect(!machine.online)
    }

    @Test func probeAnswersWhileOnlineAreIgnored() {
        var machine = ConnectivityMachine(maxProbeInterval: .seconds(30))
        _ = machine.handle(.started(hasDefaultRoute: true))
        #expect(machine.handle(.probed(reachable: false)) == [])
        #expect(machine.online)
    }
}
