//! Conditional nodes: while, if, if/else and switch nodes driven by conditions that nodes of the
//! graph set from device memory; and every misuse refused before the driver.

use ferrocuda::prelude::*;
use host_runtime::graph::{Conditional, GraphMut};
use host_runtime::GraphError;

/// Doubles `x[0]`; the flag says whether it is still below `limit`.
#[kernel]
pub fn double_until(x: &mut [u32], flag: &mut [u32], limit: u32) {
    if thread_idx().x == 0 && block_idx().x == 0 {
        x[0] *= 2;
        flag[0] = (x[0] < limit) as u32;
    }
}

/// `y[0] += a`.
#[kernel]
pub fn add_to(y: &mut [u32], a: u32) {
    if thread_idx().x == 0 && block_idx().x == 0 {
        y[0] += a;
    }
}

/// `flag[0] = v`.
#[kernel]
pub fn put(flag: &mut [u32], v: u32) {
    if thread_idx().x == 0 && block_idx().x == 0 {
        flag[0] = v;
    }
}

fn one() -> LaunchConfig {
    LaunchConfig::for_elements(1, 32)
}

/// A while node whose body doubles `x` and sets the condition from the kernel's flag: the loop
/// runs on the device until `x >= 100`; the next launch starts at the default (1) again.
pub fn while_node_loops_on_the_device(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut x = dev.upload(&[1u32]).unwrap();
    let mut flag = dev.upload(&[1u32]).unwrap();
    {
        let mut g = Graph::new(dev).unwrap();
        let go = g.conditional_handle(1).unwrap();
        assert_eq!(go.default_value(), 1);
        let mut fh = GraphMut::new(&mut flag);
        let w = g
            .conditional(&[], &go, Conditional::While, |b| {
                assert_eq!(b.len(), 1);
                let body = &mut b[0];
                let k = double_until::node(body, one(), &[], &mut x, &mut fh, 100)?;
                body.set_conditional(&[k], &go, &fh)?;
                Ok(())
            })
            .unwrap();
        assert_eq!((w.index(), g.node_count()), (0, 1));
        let exec = g.instantiate().unwrap();
        exec.launch(&s).unwrap();
        exec.launch(&s).unwrap();
        s.synchronize().unwrap();
    }
    // 1 -> 128 in the first launch; the second runs the body once more (128 -> 256).
    assert_eq!(x.to_vec().unwrap(), [256]);
}

/// If, if/else and switch nodes, each on a condition a kernel of the graph wrote before.
pub fn if_and_switch_nodes_pick_bodies(dev: &Device) {
    let s = dev.new_stream().unwrap();
    for v in [0u32, 1, 2, 7] {
        let mut flag = dev.upload(&[0u32]).unwrap();
        let mut y = dev.upload(&[0u32; 3]).unwrap();
        {
            let mut g = Graph::new(dev).unwrap();
            let c = g.conditional_handle(0).unwrap();
            let mut fh = GraphMut::new(&mut flag);
            let p = put::node(&mut g, one(), &[], &mut fh, v).unwrap();
            let set = g.set_conditional(&[p], &c, &fh).unwrap();
            let mut yh = GraphMut::new(&mut y);
            let i = g
                .conditional(&[set], &c, Conditional::If, |b| {
                    add_to::node(&mut b[0], one(), &[], &mut yh, 1).map(|_| ())
                })
                .unwrap();
            let e = g
                .conditional(&[i], &c, Conditional::IfElse, |b| {
                    add_to::node(&mut b[0], one(), &[], &mut yh, 10)?;
                    add_to::node(&mut b[1], one(), &[], &mut yh, 100)?;
                    Ok(())
                })
                .unwrap();
            g.conditional(&[e], &c, Conditional::Switch(3), |b| {
                for (k, body) in b.iter_mut().enumerate() {
                    add_to::node(body, one(), &[], &mut yh, 1000 * (k as u32 + 1))?;
                }
                Ok(())
            })
            .unwrap();
            let exec = g.instantiate().unwrap();
            exec.launch(&s).unwrap();
            s.synchronize().unwrap();
        }
        let want = match v {
            0 => 100 + 1000,
            1 => 1 + 10 + 2000,
            2 => 1 + 10 + 3000,
            _ => 1 + 10,
        };
        assert_eq!(y.to_vec().unwrap()[0], want, "condition {v}");
    }
}

/// Every misuse of conditional nodes gets its own error before the driver.
pub fn conditional_misuse_is_refused(dev: &Device) {
    let flag = dev.upload(&[0u32]).unwrap();
    let mut other_flag = dev.upload(&[0u32]).unwrap();
    let mut y = dev.upload(&[0u32]).unwrap();
    let mut g = Graph::new(dev).unwrap();
    let mut other = Graph::new(dev).unwrap();
    let theirs = other.conditional_handle(0).unwrap();
    assert!(matches!(
        g.conditional(&[], &theirs, Conditional::If, |_| Ok(())),
        Err(Error::Graph(GraphError::HandleOfAnotherGraph))
    ));
    assert!(matches!(
        g.set_conditional(&[], &theirs, &flag),
        Err(Error::Graph(GraphError::HandleOfAnotherGraph))
    ));
    let c = g.conditional_handle(0).unwrap();
    assert!(matches!(
        g.conditional(&[], &c, Conditional::Switch(0), |_| Ok(())),
        Err(Error::InvalidValue(_))
    ));
    // What a body may not hold; the refused node is not added.
    let refused = |r: host_runtime::Result<GraphNode>| {
        assert!(
            matches!(
                r,
                Err(Error::Graph(GraphError::NotInConditionalBody { .. }))
            ),
            "{r:?}"
        );
    };
    let r = g.conditional(&[], &c, Conditional::If, |b| {
        let body = &mut b[0];
        refused(body.host(&[], || {}));
        refused(body.conditional(&[], &c, Conditional::If, |_| Ok(())));
        assert!(matches!(
            body.conditional_handle(0),
            Err(Error::Graph(GraphError::NotInConditionalBody { .. }))
        ));
        assert!(matches!(
            body.mem_alloc::<u32>(&[], 4),
            Err(Error::Graph(GraphError::NotInConditionalBody { .. }))
        ));
        assert!(matches!(
            body.instantiate(),
            Err(Error::Graph(GraphError::NotInConditionalBody { .. }))
        ));
        Ok(())
    });
    assert!(r.is_ok());
    // A body's uses count as the node's: a write unordered with the graph's own writer.
    let w = add_to::node(&mut g, one(), &[], &mut y, 1).unwrap();
    let before = g.node_count();
    let mut yh = GraphMut::new(&mut other_flag);
    let r = g.conditional(&[], &c, Conditional::If, |b| {
        put::node(&mut b[0], one(), &[], &mut yh, 1).map(|_| ())
    });
    assert!(r.is_ok(), "{r:?}");
    let r = g.conditional(&[], &c, Conditional::If, |b| {
        put::node(&mut b[0], one(), &[], &mut yh, 2).map(|_| ())
    });
    assert!(
        matches!(r, Err(Error::Graph(GraphError::UnorderedConflict { .. }))),
        "{r:?}"
    );
    assert_eq!(g.node_count(), before + 1, "the refused node is removed");
    let _ = w;
    // Graphs with conditional nodes are no child graphs, and take no exec update.
    let mut parent = Graph::new(dev).unwrap();
    assert!(matches!(
        parent.child(&[], &g),
        Err(Error::Graph(GraphError::ConditionalInChild))
    ));
}
